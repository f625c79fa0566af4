"""Identity: who a person is and what they chose.

Users, magic-link sign-in, API tokens, browser sessions and CSRF (:mod:`.auth`), and a
player's settings for mail: delivery, quiet hours, digest hour, reminder lead
(:mod:`.settings`).

May import: :mod:`service.words`, :mod:`service.plumbing`.
"""
