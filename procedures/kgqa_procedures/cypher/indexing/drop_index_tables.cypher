// Drop the whole HubLink index (used by `index build --rebuild`, e.g. after changing the model).
DROP TABLE IF EXISTS Embeds;
DROP TABLE IF EXISTS HasPath;
DROP TABLE IF EXISTS HubPath;
DROP TABLE IF EXISTS Hub;
DROP TABLE IF EXISTS EmbeddedText;
