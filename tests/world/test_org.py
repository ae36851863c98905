"""The home company's reporting lines: one head per department, one top, everyone reports up to the top."""

from __future__ import annotations

from compoworld.world.org import department_of, is_lead, org_chart
from compoworld.world.population import build_population


def test_each_department_is_headed_by_its_longest_serving_lead_and_everyone_reaches_the_top() -> None:
    staff = build_population(0).employees
    chart = org_chart(staff)
    assert set(chart.heads) == {department_of(p) for p in staff}
    for name, head in chart.heads.items():
        members = [p for p in staff if department_of(p) == name]
        leads = [p for p in members if is_lead(p)]
        pool = leads or members
        assert head == min(pool, key=lambda p: (p.hire_date, p.key))
    assert chart.manager_of(chart.top) is None
    for person in staff:
        chain, current = [], person
        while (manager := chart.manager_of(current)) is not None:
            chain.append(manager)
            current = manager
            assert len(chain) <= 2, "nobody is more than two steps below the top"
        assert current == chart.top
