"""The real services are really used when configured."""

from __future__ import annotations

import pytest
from django.db import connection

from battles.models import Battle


@pytest.mark.django_db
def test_it_uses_postgresql_when_database_url_says_so(postgres):
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    Battle.objects.create(
        name="B", ruleset="combined_arms", scenario={"a": [1]}, seed=7, engine_version="x"
    )
    assert Battle.objects.get().scenario == {"a": [1]}


def test_it_talks_to_redis(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    assert client.ping() is True
