"""What every part of the site stands on: the error model, checked free text, change history, dates
and pictures, the base pages and the offline service worker."""
