"""A model query built and compiled to SQL once per process and database, then run again with
new parameters: for the few reads on a hot path (a deal post's locked match and its access
check), where Django spends more CPU building and compiling a queryset with joins than the
database spends running it.

    MATCHES = CompiledQuery(lambda pk, user_pk: Match.objects.select_related(...).filter(...))
    match = MATCHES.bind(match_pk, user.pk).select_for_update(of=("self",)).get()

`bind` returns a `BoundQuery`, which offers the two queryset methods such a read needs
(`select_for_update`, `get`), so code written for a queryset (`scoring.services.match_locked`)
takes either. The SQL is the one Django compiles for the queryset, and the rows become model
instances as a queryset's would (`select_related` objects and annotations included): the
builder is called once per database and lock with stand-in arguments, whose places among the
SQL's parameters are then filled with the real ones. A builder whose parameters are not the
arguments as given (a lookup that transforms its value, e.g. `__contains`) is refused
(`ValueError`) on its first use. A `values_list` of fields is read with `rows()`. Known
related objects (a related manager's queryset) are not supported: build from a model's
manager.
"""

from collections.abc import Callable

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import MAX_GET_RESULTS, get_related_populators

# Stand-in arguments: integers no real argument is, each found again among the parameters.
_STAND_IN = 7_345_190_000_000_000_000


class CompiledQuery:
    """`build(*args) -> QuerySet` of one model, compiled on first use (per database, number
    of arguments and lock) with stand-in integer arguments; `bind(*args)` runs it with real
    ones."""

    def __init__(self, build: Callable[..., QuerySet]):
        self._build = build
        self._model: type[Model] | None = None  # the builder's model, known once it has run
        self._compiled: dict[tuple, _Compiled] = {}

    def bind(self, *args) -> "BoundQuery":
        """The query with `args` (integers or None, in the builder's order)."""
        return BoundQuery(self, args, None)

    def _compiled_for(self, arity: int, lock: tuple | None, *, one: bool) -> "_Compiled":
        """The query compiled for the database it runs on now, as a queryset's would: the
        router's for reading, or for writing when `lock` (select_for_update's options) is
        given. Each database has its own SQL (another vendor's compiler) and connection."""
        if self._model is not None:
            compiled = self._compiled.get((_database(self._model, lock), arity, lock, one))
            if compiled is not None:
                return compiled
        queryset = self._build(*(_STAND_IN + index for index in range(arity)))
        if lock is not None:
            queryset = queryset.select_for_update(**dict(lock))
        self._model = queryset.model
        alias = _database(self._model, lock)
        compiled = _Compiled(queryset.using(alias), arity, one)
        return self._compiled.setdefault((alias, arity, lock, one), compiled)


def _database(model: type[Model], lock: tuple | None) -> str:
    """The alias a queryset of `model` without `using()` or hints runs on (`QuerySet.db`)."""
    if lock is not None:  # select_for_update makes a queryset one for writing
        return router.db_for_write(model)
    return router.db_for_read(model)


class BoundQuery:
    """A `CompiledQuery` with its arguments: `select_for_update(**options)` and `get()`."""

    def __init__(self, query: CompiledQuery, args: tuple, lock: tuple | None):
        self._query, self._args, self._lock = query, args, lock

    def select_for_update(self, **options) -> "BoundQuery":
        return BoundQuery(self._query, self._args, tuple(sorted(options.items())))

    def get(self) -> Model:
        """The one row, as `QuerySet.get`: raises the model's `DoesNotExist` or
        `MultipleObjectsReturned`."""
        return self._query._compiled_for(len(self._args), self._lock, one=True).get(self._args)

    def rows(self) -> list[tuple]:
        """Every row of a `values_list` queryset, as tuples of its columns, in its order."""
        return self._query._compiled_for(len(self._args), self._lock, one=False).rows(
            self._args)


class _Compiled:
    """The SQL of `queryset` (`one`: as `QuerySet.get` runs it), where each stand-in argument
    stands, and how to turn its rows into instances (Django's `ModelIterable`, without a
    queryset each time) or, for a `values_list` queryset, tuples."""

    def __init__(self, queryset: QuerySet, arity: int, one: bool):
        if queryset._known_related_objects:
            raise ValueError("CompiledQuery: build from a model's manager, not a related one")
        self.model, self.alias = queryset.model, queryset.db
        features = connections[self.alias].features
        if one:
            queryset = queryset.order_by()  # as QuerySet.get
        if one and (not queryset.query.select_for_update
                    or features.supports_select_for_update_with_limit):
            queryset.query.set_limits(high=MAX_GET_RESULTS)
        compiler = queryset.query.get_compiler(using=self.alias)
        self.sql, params = compiler.as_sql()
        stand_ins = {_STAND_IN + index: index for index in range(arity)}
        self.places = [stand_ins.get(param, ("constant", param)) for param in params]
        if sorted(p for p in self.places if isinstance(p, int)) != list(range(arity)):
            raise ValueError("CompiledQuery: each argument must be a parameter as it is given")
        klass_info, select = compiler.klass_info, compiler.select
        converters = compiler.get_converters([column[0] for column in select[:compiler.col_count]])
        self.converters = list(converters.items())
        if klass_info is None:  # values_list: tuples, not instances
            if queryset.query.annotation_select or queryset.query.extra_select:
                raise ValueError("CompiledQuery: a values_list of fields only")
            return
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start:self.end]]
        self.populators = get_related_populators(klass_info, select, self.alias)
        self.annotations = dict(compiler.annotation_col_map or {})

    def _fetch(self, args: tuple, size: int | None) -> list:
        params = [args[p] if isinstance(p, int) else p[1] for p in self.places]
        with connections[self.alias].cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.fetchall() if size is None else cursor.fetchmany(size)

    def _converted(self, row) -> list:
        if not self.converters:
            return list(row)
        row, connection = list(row), connections[self.alias]
        for position, (converters, expression) in self.converters:  # as SQLCompiler's
            for converter in converters:
                row[position] = converter(row[position], expression, connection)
        return row

    def rows(self, args: tuple) -> list[tuple]:
        if not self.converters:
            return [tuple(row) for row in self._fetch(args, None)]
        return [tuple(self._converted(row)) for row in self._fetch(args, None)]

    def get(self, args: tuple) -> Model:
        rows = self._fetch(args, 2)
        if not rows:
            raise self.model.DoesNotExist(
                f"{self.model._meta.object_name} matching query does not exist.")
        if len(rows) > 1:
            raise self.model.MultipleObjectsReturned(
                f"get() returned more than one {self.model._meta.object_name}")
        row = self._converted(rows[0])
        obj = self.model.from_db(self.alias, self.init_list, row[self.start:self.end])
        for populator in self.populators:
            populator.populate(row, obj)
        for name, position in self.annotations.items():
            setattr(obj, name, row[position])
        return obj
