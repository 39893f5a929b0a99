"""The helpers every app shares, at the bottom of the house: it imports no app.

- ``core.http``: the request types views are annotated with.
- ``core.caching``: work kept in the cache and done once for many readers.
- ``core.cache``: the cache's backends, one part per database, never a 500 while the
  cache cannot be reached.
- ``core.throttles``: rate limits, each saying what it does when the cache cannot count.
- ``core.clients``: who a request comes from (the throttles' key).
- ``core.errors``: the one base of the errors a user can cause (``DomainError``), which
  views catch.

``config`` is the roof (settings, URLs, WSGI, the site-wide error pages and middleware);
the apps import ``core``, never ``config``.
"""
