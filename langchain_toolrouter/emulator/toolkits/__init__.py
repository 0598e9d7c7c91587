"""Built-in toolkits of the emulator catalog, one module each."""
