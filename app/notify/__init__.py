"""Telling players about their games when no page of theirs is open (issue 32).

``webpush.py`` sends one Web Push message (RFC 8030) to a browser's push service:
the payload encrypted for that browser alone (RFC 8291) and the request signed with
the server's VAPID key (RFC 8292), through the http-ece and py-vapid libraries.
"""
