"""Move the play-off seeds out of the play-off rounds' explanations onto the entries.

Until now every play-off round kept the whole bracket's seeds in its explanation, as
``{"seeds": {"<entry id>": seed}}``; the same seeds were copied into each round. Now
each entry holds its own (``Entry.playoff_seed``). Going back copies them into every
play-off round's explanation again.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def seeds_to_entries(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Entry = apps.get_model("tournaments", "Entry")
    Round = apps.get_model("tournaments", "Round")
    seeded = set()
    for round_ in Round.objects.filter(kind="playoff").order_by("tournament_id", "number"):
        seeds = round_.explanation.pop("seeds", None)
        if seeds is None:
            continue
        if round_.tournament_id not in seeded:  # every round holds the same; the first says
            seeded.add(round_.tournament_id)
            for entry, seed in seeds.items():
                Entry.objects.filter(pk=int(entry), tournament_id=round_.tournament_id).update(
                    playoff_seed=seed
                )
        round_.save(update_fields=["explanation"])


def seeds_to_explanations(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Entry = apps.get_model("tournaments", "Entry")
    Round = apps.get_model("tournaments", "Round")
    for round_ in Round.objects.filter(kind="playoff"):
        entries = Entry.objects.filter(tournament_id=round_.tournament_id, playoff_seed__isnull=False)
        seeds = {str(pk): seed for pk, seed in entries.values_list("pk", "playoff_seed")}
        round_.explanation = {**round_.explanation, "seeds": seeds}
        round_.save(update_fields=["explanation"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0008_playoff_seed")]

    operations = [migrations.RunPython(seeds_to_entries, seeds_to_explanations)]
