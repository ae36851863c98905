"""Education: learning management and student information systems."""
