"""`club.middleware.ContentSecurityPolicyMiddleware` builds the site's policy once: every
answer carries the policy of `settings.CONTENT_SECURITY_POLICY`, written out here by hand; a
changed setting changes the header at once; a view's own policy (a django-csp decorator)
still gets django-csp's own work."""

import pytest
from csp.decorators import csp_update
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from club.middleware import ContentSecurityPolicyMiddleware

pytestmark = pytest.mark.django_db

SITE_POLICY = {
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'self'",
    "form-action 'self'", "frame-ancestors 'none'",
}


def directives(header: str) -> set[str]:
    return {part.strip() for part in header.split(";")}


def answer(view=lambda request: HttpResponse("ok")):
    request = RequestFactory().get("/")
    middleware = ContentSecurityPolicyMiddleware(view)
    return middleware(request)


def test_every_answer_carries_the_sites_policy(client):
    for _ in range(3):  # the first builds it, the next ones reuse it
        assert directives(answer()["Content-Security-Policy"]) == SITE_POLICY
        assert directives(client.get("/accounts/login/")["Content-Security-Policy"]) \
            == SITE_POLICY


def test_a_changed_setting_changes_the_header():
    answer()
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert answer()["Content-Security-Policy"] == "default-src 'none'"
    assert directives(answer()["Content-Security-Policy"]) == SITE_POLICY


def test_a_views_own_policy_is_its_own():
    answer()

    @csp_update({"img-src": ["https://example.org"]})
    def view(request):
        return HttpResponse("ok")

    header = directives(answer(view)["Content-Security-Policy"])
    assert "img-src 'self' data: https://example.org" in header
    assert directives(answer()["Content-Security-Policy"]) == SITE_POLICY


def test_a_304_carries_no_policy():
    response = answer(lambda request: HttpResponse(status=304))
    assert "Content-Security-Policy" not in response
