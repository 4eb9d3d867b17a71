from django.apps import AppConfig


class EventlogConfig(AppConfig):
    name = "eventlog"
