"""Accounts: players, sign-in links, addresses and bounces."""
