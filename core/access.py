"""Who sees everything: the one rule every visibility and permission check starts from."""


def sees_everything(user) -> bool:
    """Staff see and may organise every club, event and player (the admin's accounts); every
    other check (`Player.objects.visible_to`, `Tournament.objects.visible_to`,
    `events.access.can_organise`, the clubs a user may hold events for) starts here.
    `user`: a `User` or `AnonymousUser` (never staff)."""
    return bool(user.is_staff)
