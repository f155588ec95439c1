// The Gala extension's client: starts `galac lsp` (the executable named by
// the `gala.serverPath` setting) over stdio for every Gala file, and
// restarts it when that setting changes or on the command "Gala: Restart
// Language Server". Highlighting comes from the TextMate grammar in
// syntaxes/, which needs no server.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The client for the configured server, not yet started. */
function makeClient() {
  const command = vscode.workspace.getConfiguration('gala').get('serverPath') || 'galac';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'gala' },
      { scheme: 'untitled', language: 'gala' },
    ],
  };
  return new LanguageClient('gala', 'Gala language server', serverOptions, clientOptions);
}

/** Stops the running client, if any, and starts one for the current setting. */
async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => {});
  }
  client = makeClient();
  try {
    await client.start();
  } catch (err) {
    const command = vscode.workspace.getConfiguration('gala').get('serverPath') || 'galac';
    vscode.window.showErrorMessage(
      `Gala: could not start \`${command} lsp\` (${err && err.message ? err.message : err}). ` +
        'Install galac or set `gala.serverPath` to its path.',
    );
  }
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('gala.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration(event => {
      if (event.affectsConfiguration('gala.serverPath')) {
        restart();
      }
    }),
  );
  return restart();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
