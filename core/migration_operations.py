"""`AdoptOrCreateModel`: the first migration of an app that took over models another app
defined, on databases written before the move.

The site once kept its events, ratings, table entry, print and import records in one app,
`tournaments`, and the worker's heartbeat in `club`. Their models now live in the apps that
own them (`events`, `ratings`, `tableside`, `printing`, `exchange`, `server`). On a new
database each table is created as usual; on a database written before the move the table is
there already under the old app's name, with its rows, so it is renamed instead (with its
many-to-many tables, and the content type that admin log entries and permissions point at).
The old table must have the columns the new model declares: the first migrations of the
new apps describe exactly the schema the old apps had reached.
"""

from django.db import migrations


class AdoptOrCreateModel(migrations.CreateModel):
    """`CreateModel(...)` with `legacy_table`: the table name this model had before its app
    changed (e.g. "tournaments_tournament"). Forwards: nothing when the model's table exists
    already, a rename when `legacy_table` exists, else a new table. Backwards drops the
    table, as `CreateModel` does."""

    def __init__(self, *args, legacy_table: str, **kwargs):
        self.legacy_table = legacy_table
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, args, kwargs = super().deconstruct()
        return self.__class__.__name__, args, {**kwargs, "legacy_table": self.legacy_table}

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        model = to_state.apps.get_model(app_label, self.name)
        connection = schema_editor.connection
        tables = set(connection.introspection.table_names())
        table = model._meta.db_table
        if table in tables:
            return
        if self.legacy_table not in tables:
            super().database_forwards(app_label, schema_editor, from_state, to_state)
            return
        schema_editor.alter_db_table(model, self.legacy_table, table)
        for field in model._meta.local_many_to_many:
            through = field.remote_field.through
            if through._meta.auto_created:
                schema_editor.alter_db_table(
                    through, f"{self.legacy_table}_{field.name}", through._meta.db_table)
        if "django_content_type" in tables:
            old_label = self.legacy_table.removesuffix("_" + model._meta.model_name)
            schema_editor.execute(
                "UPDATE django_content_type SET app_label = %s WHERE app_label = %s AND model = %s",
                [app_label, old_label, model._meta.model_name],
            )
