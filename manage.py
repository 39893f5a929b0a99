#!/usr/bin/env python
"""Django's command-line utility for the club's site.

A setting that stops a command (a bad ``DATABASE_URL``, ``CACHE_URL`` or ``EMAIL_URL``;
no ``SECRET_KEY`` for a command that needs one, such as ``runserver`` without ``DEBUG``)
is said in one line on stderr, starting with the variable to set, with exit status 1
and no traceback (``--traceback`` shows it): config/startup.py.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    from config.startup import SERVING_COMMANDS, load_settings, one_line

    command = sys.argv[1] if len(sys.argv) > 1 else "help"
    serving = command in SERVING_COMMANDS and not {"-h", "--help"} & set(sys.argv)
    try:
        load_settings(serving=f"manage.py {command}" if serving else None)
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        if "--traceback" in sys.argv:
            raise
        sys.exit(one_line(error, what=f"manage.py {command}"))


if __name__ == "__main__":
    main()
