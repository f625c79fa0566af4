"""Web: the HTML pages of the site.

The game pages (:mod:`.pages`), the site around them (:mod:`.site_pages`), settings for
notifications and the one-click answers (:mod:`.notify_pages`), webhooks and standing
orders (:mod:`.automation_pages`), forms from JSON schemas (:mod:`.schema_forms`,
:mod:`.setup_form`), the boards drawn as pictures (:mod:`.boards`) and the static files.

May import: :mod:`service.notify`, :mod:`service.play`, :mod:`service.identity`,
:mod:`service.words`, :mod:`service.plumbing`.  Never :mod:`service.api`.
"""
