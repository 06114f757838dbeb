// Rename one of HubLink's own tables (the upgrade to the reserved `kgqa_` prefix; both names are
// HubLink's fixed table names, checked against the catalog). Data and vector indexes stay with it.
ALTER TABLE {{name:old}} RENAME TO {{name:new}};
