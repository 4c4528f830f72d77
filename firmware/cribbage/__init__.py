"""Rules core: cards, scorers and the match engine. No hardware, no clock, no asyncio."""
