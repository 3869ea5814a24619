# On a machine that can reach the real server, with the credentials the client needs:
UNDERSTUDY_RECORD=missing swift test --filter 'CassetteTutorialTests/loadsAUser'

# The cassette is redacted, scanned for credentials and written beside the test:
git add Tests/AppTests/__Cassettes__/CassetteTutorialTests/loadsAUser.har

# From now on the test replays it, offline:
swift test --filter 'CassetteTutorialTests/loadsAUser'
