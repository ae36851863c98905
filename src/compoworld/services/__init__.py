"""The built-in services: one ``register`` line each, imported only when used."""

from compoworld.registry import register

register("calendar", "compoworld.services.calendar:service")
register("chat", "compoworld.services.chat:service")
register("codehost", "compoworld.services.codehost:service")
register("crm", "compoworld.services.crm:service")
register("helpdesk", "compoworld.services.helpdesk:service")
register("hr", "compoworld.services.hr:service")
register("invoicing", "compoworld.services.invoicing:service")
register("mail", "compoworld.services.mail:service")
register("payments", "compoworld.services.payments:service")
register("shipping", "compoworld.services.shipping:service")
register("shop", "compoworld.services.shop:service")
register("storage", "compoworld.services.storage:service")
register("tracker", "compoworld.services.tracker:service")
