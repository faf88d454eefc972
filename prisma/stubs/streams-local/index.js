// See package.json: Corefboard does not use `prisma dev`, the only user of this package.
throw new Error("@prisma/streams-local is not installed: Corefboard replaces it with a stub (package.json overrides), since only `prisma dev` needs it and it wants Node >= 22");
