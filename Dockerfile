# The club's site for production: gunicorn behind your proxy, PostgreSQL via DATABASE_URL.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# WeasyPrint's system libraries (Pango, HarfBuzz) and fonts with å, ä, ö for the PDFs.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && SECRET_KEY=compile-only DEBUG=1 python manage.py compilemessages -l sv -l en --ignore=.venv \
    && useradd --create-home --uid 10001 club \
    && chown -R club:club /app

USER club
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && exec gunicorn config.wsgi:application --bind 0.0.0.0:8000 --workers ${WEB_CONCURRENCY:-3} --access-logfile -"]
