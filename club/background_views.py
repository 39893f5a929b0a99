"""The organisers' page of background work: whether the task worker runs, and the tasks
that failed in the last day, each with its reason and a button to run it again
(docs/operating.md, "When something breaks")."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_tasks_db.models import DBTaskResult

from club.roles import organiser_required
from ops.models import TaskRerun
from ops.reruns import run_again
from ops.status import failed_tasks, uses_worker, worker_status


@organiser_required
@require_safe
def background(request: HttpRequest) -> HttpResponse:
    context = {
        "status": worker_status() if uses_worker() else None,
        "failed": failed_tasks(),
    }
    return render(request, "club/background.html", context)


@organiser_required
@require_POST
def background_run_again(request: HttpRequest, pk: str) -> HttpResponse:
    row = DBTaskResult.objects.filter(pk=pk, status="FAILED").first()
    if row is None:
        raise Http404
    if run_again(row, reason=TaskRerun.Reason.ASKED) is None:
        messages.error(request, _("That task has been run again already."))
    else:
        messages.success(request, _("The task is queued again: the worker runs it in a moment."))
    return redirect("background")
