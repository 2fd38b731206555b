"""Email as a library: tokens, compose, inbound parsing, SMTP, the local sink
and the /dev/mail page. No database imports: the service wires these to its
tables (see docs/mail.md)."""
