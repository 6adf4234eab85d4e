// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @title ERC-1155 whose uri() is "{id}" repeated a settable number of times, built in memory on each call (so a
/// megabyte-long uri costs no storage): the answer-size tests use it to amplify the {id} substitution.
contract RepeatedUriERC1155 is ERC1155 {
    /// @notice How many times uri() repeats "{id}".
    uint256 public repeats;

    constructor(uint256 repeats_) ERC1155("") {
        repeats = repeats_;
    }

    /// @notice Mints several ids at once (anyone may: test token).
    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        _mintBatch(to, ids, amounts, "");
    }

    /// @notice Changes how many times uri() repeats "{id}".
    function setRepeats(uint256 repeats_) external {
        repeats = repeats_;
    }

    /// @notice "{id}" `repeats` times, for every id.
    function uri(uint256) public view override returns (string memory) {
        uint256 length = repeats * 4;
        bytes memory out = new bytes(length);
        // Eight "{id}" per 32-byte word: a megabyte costs about 32k stores, not a million.
        bytes32 word = 0x7b69647d7b69647d7b69647d7b69647d7b69647d7b69647d7b69647d7b69647d;
        for (uint256 offset = 0; offset < length; offset += 32) {
            // The last word may write past the string's end, into memory nothing else uses yet.
            // solhint-disable-next-line no-inline-assembly
            assembly {
                mstore(add(add(out, 32), offset), word)
            }
        }
        return string(out);
    }
}
