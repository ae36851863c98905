"""People: HR records, payroll, benefits, time off, performance reviews, recruiting, job boards, background checks and training."""
