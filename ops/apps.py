from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # One log line a task, in the worker (ops.logs).
        from django_tasks.signals import task_finished

        from ops.logs import task_finished as log_task

        task_finished.connect(log_task, dispatch_uid="ops.logs.task_finished")
