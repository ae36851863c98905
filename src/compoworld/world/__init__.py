"""The world: the shared population and the facts every service seeds from.

One seeded draw of people, companies, products and places
(:mod:`~compoworld.world.population`), the cross-service seeding contracts
that make services agree about the same orders, parcels and bank accounts
(:mod:`~compoworld.world.commerce`, :mod:`~compoworld.world.finance`), and
:class:`~compoworld.world.world.World`, which builds the initial state of every
loaded service from them. The world imports only the engine; services import
the engine and the world.
"""
