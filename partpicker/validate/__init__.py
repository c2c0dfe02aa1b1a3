"""`validate`: run a profile's rules over a build and report what they found."""
