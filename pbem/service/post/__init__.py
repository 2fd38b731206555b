"""Post: the notices pbem mails and their delivery (the outbox, digests,
board pictures, mail preferences). Never imports :mod:`pbem.service.play`."""
