import Understudy

print("understudy: cassette tool (commands arrive with the CLI issue)")
