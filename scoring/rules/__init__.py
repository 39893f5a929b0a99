"""The rules of cribbage: cards, counting a hand and the play, a game to 121, a match."""
