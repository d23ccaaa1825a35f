"""Sending passes to their holders by email.

`sending` records an email in the request's transaction (a `pass_emails` row, `queued`) and
names the job that sends it after the commit; `delivery` is that job: it claims the row,
writes the message (`message`) and hands it to the SMTP server (`smtp`), then records `sent`
or `failed` and the event. Transient failures are retried on a schedule (the sweep enqueues
the row again when its retry is due). `wire` is the email as the API shows it.
"""
