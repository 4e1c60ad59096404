/* model.c — placeholder; the registry lands with the Hong-Kim model. */
