"""Words: how Capua speaks to people, in English, German and Russian.

The gettext catalogues and moments in a reader's time zone (:mod:`.i18n`), each game's
own words (:mod:`.terms`), decisions, answers and events told in a sentence
(:mod:`.telling`), how a seat is marked (:mod:`.seat_marks`) and the card lists of the default
sets (:mod:`.catalogue`).  Pages and mail both speak through it.

May import: :mod:`service.plumbing` and ``engine``.
"""
