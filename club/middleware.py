"""The site speaks its own language (LANGUAGE_CODE, Bulgarian) until a visitor picks another.

Django's LocaleMiddleware follows the browser's Accept-Language, which would show a Sofia club's
site in English on every English-language phone; here only the language cookie set by the
switch in the page header changes the language.
"""

from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers


class SiteLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", language)
        return response
