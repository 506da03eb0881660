import { expect } from 'chai';
import { connectionToTalkOn } from '../src/screens/start-conversation.js';

describe('console: the connection a new conversation goes out on', () => {
  it('is the default, else the only one; with several and no default the operator chooses', () => {
    expect(
      connectionToTalkOn([
        { id: 1, isDefault: false },
        { id: 2, isDefault: true },
      ]),
    ).to.equal(2);
    expect(connectionToTalkOn([{ id: 7, isDefault: false }])).to.equal(7);
    expect(
      connectionToTalkOn([
        { id: 1, isDefault: false },
        { id: 2, isDefault: false },
      ]),
    ).to.equal(null);
    expect(connectionToTalkOn([])).to.equal(null);
  });
});
