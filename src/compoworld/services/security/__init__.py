"""Security operations: incident response, vulnerabilities, devices, IT assets, compliance and awareness."""
