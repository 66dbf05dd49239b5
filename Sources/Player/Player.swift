// Player: playback over a clock, and the property animator.
