from django.conf import settings

from config import celery_app


def test_celery_app_takes_its_configuration_from_django_settings() -> None:
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL
    assert celery_app.conf.task_always_eager is (settings.ENV.redis_url is None)
    assert celery_app.conf.task_eager_propagates is True
