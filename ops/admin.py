"""The workers' beats and the tasks run again, read-only in the admin: written by the
workers alone (``ops.worker``, ``ops.reruns``)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from ops.models import TaskRerun, WorkerBeat


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(WorkerBeat)
class WorkerBeatAdmin(ReadOnly):
    list_display = ["worker_id", "host", "pid", "started_at", "seen_at", "task_id", "stopped_at"]
    ordering = ["-seen_at"]


@admin.register(TaskRerun)
class TaskRerunAdmin(ReadOnly):
    list_display = ["at", "task_path", "reason", "attempt", "original_id", "rerun_id"]
    list_filter = ["reason"]
    ordering = ["-at"]
