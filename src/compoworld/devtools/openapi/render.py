"""Writing a service plan as a service module in the project's own service API.

The module reads like a hand-written service: a docstring that says where it
came from and, first, what is left to decide (the TODO list); record models
with one documented field per property; ``service.resource`` declarations;
query tools; and a seeder that draws people and companies from the shared
population and values from the document's examples. The output depends only on
the plan, so the same document always gives the same module, byte for byte.
"""

from __future__ import annotations

import json
import textwrap

from compoworld.devtools.openapi.plan import FieldPlan, QueryPlan, ResourcePlan, ServicePlan, ValuePlan

__all__ = ["render_module"]

_ENGINE_TYPES = (
    "AccountNumber",
    "Cents",
    "City",
    "CompanyName",
    "Country",
    "Currency",
    "Date",
    "DateTime",
    "Domain",
    "Email",
    "FirstName",
    "InvoiceNumber",
    "Language",
    "LastName",
    "Latitude",
    "Longitude",
    "OrderNumber",
    "Percent",
    "PersonName",
    "Phone",
    "PostalCode",
    "Quantity",
    "Sku",
    "Text",
    "Timezone",
    "Title",
    "TrackingNumber",
    "Url",
)

_SEED_EXPR = {
    "Email": "p.email",
    "Phone": "p.phone",
    "PersonName": "p.name",
    "FirstName": "p.first_name",
    "LastName": "p.last_name",
    "CompanyName": "c.name",
    "Domain": "c.domain",
    "Country": "p.address.country",
    "City": "p.address.city",
    "PostalCode": "p.address.postal_code",
    "Currency": "p.place.currency",
    "Language": "p.place.language",
    "Timezone": "p.place.timezone",
    "Latitude": "p.place.latitude",
    "Longitude": "p.place.longitude",
    "Date": "(s.now - dt.timedelta(days=30 * (n + 1))).date()",
    "DateTime": "s.now - dt.timedelta(days=n + 1, hours=n)",
    "Cents": "1250 * (n + 1)",
    "Quantity": "n + 1",
    "Percent": "float(10 * (n % 10))",
    "Sku": "s.population.products[n % len(s.population.products)].sku",
    "TrackingNumber": 'f"TRK{n + 1:08d}"',
    "InvoiceNumber": 'f"INV-{n + 1:05d}"',
    "OrderNumber": 'f"ORD-{n + 1:05d}"',
    "AccountNumber": 'f"ACCT-{n + 1:06d}"',
}
_TOP_COUNT = 6
_CHILD_COUNT = 8


def render_module(plan: ServicePlan) -> str:
    """Write the service module for a plan.

    Args:
        plan: The plan.

    Returns:
        The module's source text.
    """
    out = _Writer(plan)
    return out.module()


class _Writer:
    def __init__(self, plan: ServicePlan) -> None:
        self.plan = plan
        self.lines: list[str] = []
        self.aliases: dict[tuple[str, ...], str] = {}
        self.used: set[str] = set()
        self.seeded: set[str] = set()

    def module(self) -> str:
        body = self._body()
        head = self._head()
        text = "\n".join([*head, *body]).rstrip() + "\n"
        while "\n\n\n\n" in text:
            text = text.replace("\n\n\n\n", "\n\n\n")
        return text

    # -- the parts ------------------------------------------------------------------------------

    def _head(self) -> list[str]:
        plan = self.plan
        doc = [f"{plan.title}: scaffolded from {plan.source}.", ""]
        doc += _wrap(plan.description)
        doc += [
            "",
            f"Made by ``compoworld service new --from-openapi {plan.source} --name {plan.name}``. Edit it",
            "freely; ``compoworld service check`` runs the conformance suite on it.",
            "",
        ]
        if plan.todos:
            doc.append(f"TODO ({len(plan.todos)} decisions the scaffold left open):")
            doc += [line for t in plan.todos for line in _wrap(f"- {t.where}: {t.what}", indent="  ")]
        else:
            doc.append("TODO: nothing; every operation became a tool.")
        text = "\n".join(doc).replace("\\", "\\\\").replace('"""', "'''")
        lines = ['"""' + text.lstrip(), '"""', "", "from __future__ import annotations", ""]
        if "dt." in "\n".join(self.lines):
            lines += ["import datetime as dt"]
        typing = sorted(n for n in ("Annotated", "Literal", "get_args") if n in self.used)
        lines += [f"from typing import {', '.join(typing)}" if typing else ""]
        pyd = sorted(n for n in ("Field", "StringConstraints") if n in self.used)
        lines += ["", f"from pydantic import {', '.join(pyd)}"] if pyd else []
        lines += [""]
        if self.plan.queries:
            lines.append("from compoworld.engine.context import Ctx")
        records = sorted(n for n in ("CREATED", "UPDATED") if n in self.used)
        lines.append(f"from compoworld.engine.records import {', '.join([*records, 'Record'])}")
        service_names = ["Service", "Transition"] if "Transition" in self.used else ["Service"]
        lines.append(f"from compoworld.engine.service import {', '.join(service_names)}")
        lines.append("from compoworld.engine.state import SeedContext")
        types = sorted(n for n in (*_ENGINE_TYPES, "IdOf") if n in self.used)
        if types:
            lines.append(f"from compoworld.engine.types import {', '.join(types)}")
        if "Value" in self.used:
            lines.append("from compoworld.services.kit.records import Value")
        return [*_tidy_imports(lines), "", '__all__ = ["service"]', ""]

    def _body(self) -> list[str]:
        plan = self.plan
        w = self.lines
        w += [
            "service = Service(",
            f"    {_lit(plan.name)},",
            f"    title={_lit(plan.title)},",
            f"    category={_lit(plan.category)},",
            f"    modeled_on={_lit(plan.modeled_on)},",
            f"    description={_lit(plan.description)},",
            ")",
            "",
        ]
        if plan.resources:
            self.used.update({"Annotated", "IdOf"})
        for res in plan.resources:
            w.append(f'{res.class_name}Id = Annotated[str, IdOf("{plan.name}.{res.name}")]')
        w.append("")
        for res in plan.resources:
            for f in res.fields:
                self._alias(res.class_name, f)
        for value in plan.values:
            for f in value.fields:
                self._alias(value.class_name, f)
        if self.aliases:
            w.append("")
        for value in _value_order(plan.values):
            self._value_class(value)
        for res in plan.resources:
            self._record_class(res)
        for res in plan.resources:
            self._declaration(res)
        for query in plan.queries:
            self._query(query)
        self._seeder()
        return w

    def _alias(self, owner: str, f: FieldPlan) -> None:
        name = f"{owner}{''.join(p.capitalize() for p in f.name.split('_'))}"
        if f.kind == "enum" and tuple(f.enum) not in self.aliases:
            self.aliases[tuple(f.enum)] = name
            self.used.add("Literal")
            values = [_lit(v) for v in f.enum]
            line = f"{name} = Literal[{', '.join(values)}]"
            self.lines += [line] if len(line) <= 120 else [f"{name} = Literal[", *[f"    {v}," for v in values], "]"]
            self.lines.append(f'"""The values of {owner}.{f.name}."""')
        elif f.kind == "scalar" and f.constraints and _constraint_key(f) not in self.aliases:
            helper = "StringConstraints" if f.py == "str" else "Field"
            self.used.update({helper, "Annotated"})
            self.aliases[_constraint_key(f)] = name
            args = ", ".join(f"{k}={_lit(v)}" for k, v in f.constraints.items())
            line = f"{name} = Annotated[{f.py}, {helper}({args})]"
            self.lines += [line] if len(line) <= 120 else [f"{name} = Annotated[", f"    {f.py}, {helper}({args})", "]"]
            self.lines.append(f'"""{owner}.{f.name} as the document constrains it."""')

    def _annotation(self, f: FieldPlan) -> str:
        if f.kind == "enum":
            base = self.aliases[tuple(f.enum)]
        elif f.kind == "id" or f.kind == "value":
            base = f.py
        else:
            base = f.py
            if f.semantic is not None:
                self.used.add(f.semantic)
            if f.constraints:
                base = self.aliases[_constraint_key(f)]
        if f.generated:
            self.used.update({f.generated, "Annotated"})
            return f"Annotated[{base}, {f.generated}]"
        if f.many:
            return f"tuple[{base}, ...] = ()"
        if f.required:
            return base
        if f.kind == "enum" and f.default in f.enum:
            return f"{base} = {_lit(f.default)}"
        return f"{base} | None = None"

    def _field_lines(self, f: FieldPlan, owner: str) -> list[str]:
        desc = (
            f.description
            or f"{f.name.replace('_', ' ').capitalize()} of the {owner} (the document does not describe it)."
        )
        return [f"    {f.name}: {self._annotation(f)}", *_docstring(desc, "    ")]

    def _value_class(self, value: ValuePlan) -> None:
        self.used.add("Value")
        self.lines += ["", "", f"class {value.class_name}(Value):"]
        self.lines += _docstring(value.description or f"{_article(value.class_name).capitalize()} value.", "    ")
        fields = sorted(value.fields, key=lambda f: not f.required)
        for f in fields:
            self.lines.append("")
            self.lines += self._field_lines(f, value.class_name)
        if not fields:
            self.lines.append("    pass")

    def _record_class(self, res: ResourcePlan) -> None:
        self.lines += ["", "", f"class {res.class_name}(Record):"]
        self.lines += _docstring(res.description or f"{_article(res.name.replace('_', ' ')).capitalize()}.", "    ")
        self.lines += ["", f"    id: {res.class_name}Id"]
        for f in sorted(res.fields, key=lambda f: not (f.required or f.generated)):
            self.lines.append("")
            self.lines += self._field_lines(f, res.name.replace("_", " "))

    def _declaration(self, res: ResourcePlan) -> None:
        w = self.lines
        w += ["", "", f"{res.plural} = service.resource(", f"    {res.class_name},"]
        w += [f"    name={_lit(res.name)},", f"    plural={_lit(res.plural)},", f"    prefix={_lit(res.prefix)},"]
        w += _kw("create", _tuple(res.create)) if res.create is not None else ["    create=False,"]
        w.append(f"    get={res.get},")
        w += _kw("filters", _tuple(res.filters)) if res.listed else ["    filters=None,"]
        if res.search and res.listed:
            w += _kw("search", _tuple(res.search))
        if res.update:
            w += _kw("update", _tuple(res.update))
        w.append(f"    delete={res.delete},")
        if res.transitions:
            self.used.add("Transition")
            w.append("    transitions={")
            for t in res.transitions:
                w += [
                    f"        {_lit(t.verb)}: Transition(",
                    f"            {_lit(t.field)},",
                    *_kw("", _tuple(list(t.source)), indent=12),
                    f"            {_lit(t.target)},",
                    f"            {_lit(t.intent)},",
                    "        ),",
                ]
            w.append("    },")
        w.append(")")

    def _query(self, q: QueryPlan) -> None:
        res = self.plan.resource(q.resource)
        params = []
        for pname, f, required in q.params:
            ann = self._annotation(f).split(" = ")[0].split(" | None")[0]
            params.append(f"{pname}: {ann}" if required else f"{pname}: {ann} | None = None")
        w = self.lines
        w += ["", "", f"@service.tool(intent={_lit(q.summary.rstrip('.').lower())})"]
        w.append(f"def {q.name}(ctx: Ctx, {', '.join(params)}) -> list[{res.class_name}]:")
        doc = [q.summary.rstrip(".") + ".", "", f"Made from {q.operation}.", "", "Args:"]
        for pname, f, _required in q.params:
            doc.append(f"    {pname}: {f.description or 'Only records with this ' + pname.replace('_', ' ') + '.'}")
        w += _docstring("\n".join(doc), "    ")
        equals = ", ".join(f"{p}={p}" for p, _f, r in q.params if r)
        optional = [p for p, _f, r in q.params if not r]
        if optional:
            w.append(f"    found = ctx.where({res.class_name}{', ' + equals if equals else ''})")
            cond = " and ".join(f"({p} is None or r.{p} == {p})" for p in optional)
            w.append(f"    return [r for r in found if {cond}]")
        else:
            w.append(f"    return ctx.where({res.class_name}, {equals})")

    # -- seeding ----------------------------------------------------------------------------------

    def _seeder(self) -> None:
        w = self.lines
        w += ["", "", "@service.seeder", "def seed(s: SeedContext) -> None:"]
        w += _docstring(
            "Records for every resource, drawn from the shared population and the document's examples.", "    "
        )
        start = len(w)
        for res in _resource_order(self.plan.resources):
            count = _CHILD_COUNT if res.parents else _TOP_COUNT
            w.append(f"    {res.name}_ids: list[str] = []")
            w.append(f"    for n in range({count}):")
            body = self._seed_call(res)
            uses = "\n".join(body)
            if "p." in uses:
                w.append("        p = people[(n * 7 + 3) % len(people)]")
            if "c." in uses:
                w.append("        c = companies[(n * 5 + 1) % len(companies)]")
            w += body
            self.seeded.add(res.name)
        used = "\n".join(w[start:])
        pools = []
        if "people[" in used:
            pools.append("    people = [*s.population.contacts, *s.population.consumers]")
        if "companies[" in used:
            pools.append("    companies = list(s.population.customers)")
        w[start:start] = pools

    def _seed_call(self, res: ResourcePlan) -> list[str]:
        args: list[str] = []
        for f in res.fields:
            if f.generated:
                continue
            expr = self._seed_value(f, res.name)
            if expr is not None:
                args.append(f"{f.name}={expr}")
        var = f"made_{res.name}"
        line = f"        {var} = s.create({', '.join([res.class_name, *args])})"
        if len(line) <= 120:
            return [line, f"        {res.name}_ids.append({var}.id)"]
        out = [f"        {var} = s.create(", f"            {res.class_name},"]
        out += [f"            {a}," for a in args]
        return [*out, "        )", f"        {res.name}_ids.append({var}.id)"]

    def _seed_value(self, f: FieldPlan, owner: str) -> str | None:
        one = self._seed_one(f, owner)
        if one is None:
            return None
        return f"({one},)" if f.many else one

    def _seed_one(self, f: FieldPlan, owner: str) -> str | None:
        if f.kind == "id":
            if f.ref not in self.seeded:
                return None
            return f"{f.ref}_ids[n % len({f.ref}_ids)]"
        if f.kind == "enum":
            self.used.add("get_args")
            return f"get_args({self.aliases[tuple(f.enum)]})[n % {len(f.enum)}]"
        if f.kind == "value":
            value = next(v for v in self.plan.values if v.class_name == f.py)
            parts = [f"{x.name}={e}" for x in value.fields if (e := self._seed_value(x, owner)) is not None]
            return f"{value.class_name}({', '.join(parts)})"
        if f.semantic in _SEED_EXPR:
            return _SEED_EXPR[f.semantic]
        noun = f"{owner} {f.name.replace('_', ' ')}".capitalize()
        if f.semantic == "Url":
            return f'f"https://{{c.domain}}/{f.name.replace("_", "-")}/{{n + 1}}"'
        if f.semantic in ("Title", "Text"):
            if isinstance(f.example, str) and f.example.strip():
                return "f" + _lit(f.example + " {n + 1}") if "{" not in f.example else _lit(f.example)
            return f'f"{noun} {{n + 1}}"'
        if f.py == "bool":
            return "n % 2 == 0" if not isinstance(f.example, bool) else _lit(f.example)
        if f.py == "int":
            lo = f.constraints.get("ge", 1)
            hi = f.constraints.get("le")
            if isinstance(f.example, int) and not isinstance(f.example, bool):
                return _lit(f.example)
            return f"{lo} + n % {hi - lo + 1}" if hi is not None and hi - lo < 10 else f"{lo} + n"
        if f.py == "float":
            return _lit(float(f.example)) if isinstance(f.example, (int, float)) else "float(n + 1)"
        if f.py == "str":
            if f.name in ("username", "user_name", "login", "handle") and "pattern" not in f.constraints:
                return 'p.email.split("@")[0]'
            if isinstance(f.example, str) and f.example:
                if f.name.endswith(("name", "title", "label")) and "{" not in f.example:
                    return "f" + _lit(f.example + " {n + 1}")
                return _lit(f.example)
            if "pattern" in f.constraints:
                return None
            return f'f"{noun} {{n + 1}}"'
        return None


# -- helpers --------------------------------------------------------------------------------------


def _docstring(text: str, indent: str) -> list[str]:
    text = text.replace("\\", "\\\\").replace('"""', "'''").strip()
    lines = text.splitlines() or [""]
    if len(lines) == 1 and len(lines[0]) + len(indent) + 6 <= 116:
        return [f'{indent}"""{lines[0]}"""']
    wrapped: list[str] = []
    for line in lines:
        wrapped += _wrap(line, width=116 - len(indent)) if line.strip() else [""]
    out = [f'{indent}"""{wrapped[0]}']
    out += [f"{indent}{x}" if x else "" for x in wrapped[1:]]
    out.append(f'{indent}"""')
    return out


def _wrap(text: str, *, indent: str = "", width: int = 112) -> list[str]:
    if not text:
        return []
    lead = len(text) - len(text.lstrip(" "))
    return textwrap.wrap(
        text.strip(),
        width=width,
        initial_indent=" " * lead,
        subsequent_indent=" " * lead + indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [text]


def _tuple(items: list[str] | tuple[str, ...] | None) -> str:
    items = list(items or [])
    if not items:
        return "()"
    return "(" + ", ".join(_lit(i) for i in items) + ("," if len(items) == 1 else "") + ")"


def _constraint_key(f: FieldPlan) -> tuple[str, ...]:
    return (f.py, *(f"{k}={v!r}" for k, v in sorted(f.constraints.items())))


def _kw(name: str, value: str, *, indent: int = 4) -> list[str]:
    """``name=value,`` on one line, or the tuple ``value`` spread one item per line when too long."""
    pad = " " * indent
    head = f"{name}=" if name else ""
    if len(pad) + len(head) + len(value) + 1 <= 120 or not value.startswith("("):
        return [f"{pad}{head}{value},"]
    items = value[1:-1].rstrip(",").split(", ")
    return [f"{pad}{head}(", *[f"{pad}    {i}," for i in items], f"{pad}),"]


def _article(noun: str) -> str:
    low = noun.lower()
    vowel = low[:1] in ("a", "e", "i", "o") or (low[:1] == "u" and not low.startswith(("uni", "use", "usu", "uti")))
    return f"{'an' if vowel else 'a'} {noun}"


def _lit(value: object) -> str:
    """A Python literal in the project's style (double quotes)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        return "(" + ", ".join(_lit(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _tidy_imports(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if line == "" and out and out[-1] == "":
            continue
        out.append(line)
    return out


def _resource_order(resources: list[ResourcePlan]) -> list[ResourcePlan]:
    done: list[ResourcePlan] = []
    names: set[str] = set()
    pending = list(resources)
    while pending:
        progress = False
        for res in list(pending):
            needs = {f.ref for f in res.fields if f.kind == "id" and f.ref is not None and f.ref != res.name}
            if needs <= names:
                done.append(res)
                names.add(res.name)
                pending.remove(res)
                progress = True
        if not progress:
            # A cycle of references: the rest go in document order; their optional refs stay empty.
            done += pending
            break
    return done


def _value_order(values: list[ValuePlan]) -> list[ValuePlan]:
    # A value class must be defined before a class that nests it.
    order: list[ValuePlan] = []
    names = {v.class_name for v in values}
    placed: set[str] = set()
    pending = list(values)
    while pending:
        for v in list(pending):
            inner = {f.py for f in v.fields if f.kind == "value" and f.py in names}
            if inner <= placed | {v.class_name}:
                order.append(v)
                placed.add(v.class_name)
                pending.remove(v)
                break
        else:
            order += pending
            break
    return order
