"""`cost`: owning a build against renting the cloud."""
