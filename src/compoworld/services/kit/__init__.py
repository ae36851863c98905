"""The service-authoring kit: what most services would otherwise write again.

Record bases for value objects and for records with creation and update
timestamps (:mod:`~compoworld.services.kit.records`), example providers for the
conformance suite (:mod:`~compoworld.services.kit.examples`) and text helpers
such as accent folding (:mod:`~compoworld.services.kit.text`), the rules of lists staff keep
(:mod:`~compoworld.services.kit.lists`), and a decorator that keeps what an open-world service
drew from a world, once per population (:mod:`~compoworld.services.kit.drawn`). Geography (the
world's cities and countries, great-circle distances) is shared world data and
lives in :mod:`compoworld.world.geo`. The kit imports only the engine and the
world; only services import the kit.
"""
