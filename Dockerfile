# One image for the web server and the Celery workers.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 BRIDGEHEAD_VAR_DIR=/app/var
WORKDIR /app
COPY requirements.txt requirements-build.txt ./
# gcc compiles the battle engine (build_engine.py); the slim image has Python's headers.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir -r requirements-build.txt
COPY . .
RUN python build_engine.py && rm -rf build
# collectstatic needs production settings (for the hashed file names) but no real secret.
RUN BRIDGEHEAD_ENV=production ALLOWED_HOSTS=build \
    SECRET_KEY=collectstatic-only-placeholder-not-used-at-run-time-0123456789 \
    python manage.py collectstatic --noinput \
    && useradd --create-home bridgehead && mkdir -p var && chown -R bridgehead var
USER bridgehead
EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application"]
