"""Assertions shared by the API tests."""

from __future__ import annotations

from typing import Optional


def assert_error(response, status: int, code: Optional[str] = None) -> dict:
    """The response is an error of the one shape, with ``status`` (and ``code``)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:500])
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) == {"status", "code", "message", "details"}
    assert error["status"] == status
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    if code is not None:
        assert error["code"] == code, error
    return error
