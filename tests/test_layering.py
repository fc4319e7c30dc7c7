"""The import rules of docs/architecture.md, checked over the sources: layers go one way
(`tournaments -> scoring -> club`), and no module reaches for another module's private
(underscore) names."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("club", "scoring", "tournaments")


def modules(app: str) -> list[Path]:
    return sorted(p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)


def imported(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in `path`, at any depth (function-level ones too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize(("app", "forbidden"), [
    ("club", ("scoring", "tournaments")),
    ("scoring", ("tournaments",)),
])
def test_layers_go_one_way(app, forbidden):
    wrong = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in modules(app)
        for module, _names in imported(path)
        if module.split(".")[0] in forbidden
    ]
    assert wrong == []


def test_no_module_imports_private_names_of_another():
    """Neither `from x import _name` nor `x._name` (a model's `_meta` is Django's public API)."""
    own = set(APPS)
    wrong = []
    for app in APPS:
        for path in modules(app):
            tree = ast.parse(path.read_text())
            module_aliases = set()
            for module, names in imported(path):
                if module.split(".")[0] not in own:
                    continue
                wrong += [f"{path.relative_to(ROOT)}: {module}.{name}"
                          for name in names if name.startswith("_")]
                module_aliases.update(names)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__") and node.attr != "_meta"
                        and isinstance(node.value, ast.Name) and node.value.id in module_aliases):
                    wrong.append(f"{path.relative_to(ROOT)}: {node.value.id}.{node.attr}")
    assert wrong == []


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(path: Path, known: set[str]) -> set[str]:
    """The project modules `path` imports when it is loaded (module-level statements only: an
    import inside a function runs later and cannot close a circle at load time). `from a import
    b` counts as importing `a.b` when that is a module, else `a`."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in known:
            found |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known
                      else node.module for alias in node.names}
    return found


def test_no_import_circle():
    """No module of ours imports, through any chain of load-time imports, itself (the
    redesign's "no import circle in the tree")."""
    paths = {module_name(path): path for app in APPS for path in modules(app)}
    known = set(paths)
    graph = {name: top_level_imports(path, known) - {name} for name, path in paths.items()}
    circles = []
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                circles.append(" -> ".join([*trail[trail.index(target):], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []
