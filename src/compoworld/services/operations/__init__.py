"""Operations: ERP, manufacturing, maintenance, visitors, field service and utilities."""
