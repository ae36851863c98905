"""Engineering and IT operations: code hosting, CI, registries, cloud, DNS, feature flags, identity, secrets, on-call, status pages, error tracking, logs and monitoring."""
