"""The import rules of docs/architecture.md, checked over the sources:

- no module imports itself through any chain of imports (function-level ones included);
- the apps stand in layers (`LAYERS`, lowest first): a domain module (models, services,
  selectors, receivers, ...) imports its own app, the apps below it and pure modules only;
  the page layer of every app (views, URLs, forms, tables, template tags, admin, commands,
  tasks) may use any app's modules, and nothing imports a view but URLs;
- a pure module (`PURE`) imports no Django, checked in a fresh interpreter;
- no module reaches for another module's private (underscore) names.
"""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("core", "club", "scoring", "events", "standings", "ratings", "formats", "passes",
          "tableside", "live", "printing", "exchange", "feeds", "server", "config")
PURE = (
    "scoring.rules", "scoring.simulation", "core.errors", "core.fingerprints", "core.charts",
    "standings.tie_breaks", "standings.swiss_tie_breaks", "standings.ladder",
    "standings.crosstable", "ratings.glicko2", "ratings.periods", "formats.round_robin.berger",
    "formats.knockout.bracket", "formats.swiss.pairing", "formats.groups.placement",
    "club.name_matching",
)
PAGE_PARTS = ("views", "urls", "forms", "tables", "admin", "templatetags", "management",
              "tasks", "apps")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    return {module_name(path): path for app in LAYERS for path in (ROOT / app).rglob("*.py")
            if "migrations" not in path.parts}


def imports(path: Path, known: set[str]) -> list[tuple[str, list[str]]]:
    """(module, names) of every project import in `path`, at any depth, except those under
    `if TYPE_CHECKING:`. `from a import b` names the module `a.b` when that is a module."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for block in ast.walk(tree)
                   if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                   for node in ast.walk(block)}
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name in known]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in known:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.append((child, []) if child in known else (node.module, [alias.name]))
    return found


def is_page(module: str) -> bool:
    return any(part.startswith(PAGE_PARTS) for part in module.split(".")[1:])


def graph() -> dict[str, set[str]]:
    paths = sources()
    known = set(paths)
    return {name: {module for module, _ in imports(path, known)} - {name}
            for name, path in paths.items()}


def test_no_import_circle():
    edges = graph()
    circles, state = [], {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(edges[name]):
            if state.get(target) == "open":
                circles.append(" -> ".join([*trail[trail.index(target):], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_domain_modules_import_only_their_layer_and_below():
    rank = {app: number for number, app in enumerate(LAYERS)}
    upward = [
        f"{module} -> {target}"
        for module, targets in graph().items() if not is_page(module)
        for target in sorted(targets)
        if target not in PURE and rank[target.split(".")[0]] > rank[module.split(".")[0]]
    ]
    assert upward == []


def test_only_urls_import_a_view():
    def view(module: str) -> bool:
        return any(part.startswith("views") for part in module.split(".")[1:])

    wrong = [f"{module} -> {target}" for module, targets in graph().items()
             for target in targets
             if view(target) and not view(module) and ".urls" not in module
             and not module.startswith("config.")]
    assert wrong == []


def test_pure_modules_import_no_django():
    code = (
        "import importlib, sys\n"
        f"for name in {list(PURE)!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == "[]"


def test_no_module_imports_private_names_of_another():
    """Neither `from x import _name` nor `x._name` (a model's `_meta` is Django's public API)."""
    paths = sources()
    known = set(paths)
    wrong = []
    for name, path in paths.items():
        tree = ast.parse(path.read_text())
        aliases = set()
        for module, names in imports(path, known):
            wrong += [f"{name}: {module}.{n}" for n in names if n.startswith("_")]
            aliases |= set(names) | {module.rsplit(".", 1)[-1]}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and node.attr != "_meta"
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                wrong.append(f"{name}: {node.value.id}.{node.attr}")
    assert wrong == []
