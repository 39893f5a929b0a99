"""Usernames unique regardless of case, in the database: two invitations accepted at the
same moment as ``CaseName`` and ``casename`` cannot both make an account
(``club.accounts.invitation_accept`` checks first, and turns the index's refusal into
"the username is taken"). A functional unique index on ``auth_user``, which Django's own
model does not declare; PostgreSQL and SQLite both have them."""

from django.db import migrations

INDEX = "club_username_unique_regardless_of_case"


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("club", "0006_invitation_mail_letter"),
    ]

    operations = [
        migrations.RunSQL(
            sql=f"CREATE UNIQUE INDEX {INDEX} ON auth_user (UPPER(username))",
            reverse_sql=f"DROP INDEX {INDEX}",
        )
    ]
