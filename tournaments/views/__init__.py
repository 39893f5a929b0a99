"""The tournament pages: public reading, organisers' management, players' results."""
