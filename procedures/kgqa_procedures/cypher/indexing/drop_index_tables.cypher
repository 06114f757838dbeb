// Drop the whole HubLink index (used by `index build --rebuild`, e.g. after changing the model).
DROP TABLE IF EXISTS kgqa_Embeds;
DROP TABLE IF EXISTS kgqa_HasPath;
DROP TABLE IF EXISTS kgqa_HubPath;
DROP TABLE IF EXISTS kgqa_Hub;
DROP TABLE IF EXISTS kgqa_EmbeddedText;
