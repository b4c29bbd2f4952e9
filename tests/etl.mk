# ETL tests: round trips, faults.
