"""The embedded webhook receiver, as the app switches it and tells what it stores."""
