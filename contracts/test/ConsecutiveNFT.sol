// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Consecutive} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Consecutive.sol";

/// @title An ERC-2309 collection: mints `count` ids (0, 1, …) to `to` in its constructor with one ConsecutiveTransfer.
contract ConsecutiveNFT is ERC721Consecutive {
    constructor(address to, uint96 count) ERC721("Consecutive", "CONSEC") {
        _mintConsecutive(to, count);
    }

    /// @notice Burns `id` (its owner or an approved operator).
    function burn(uint256 id) external {
        _update(address(0), id, msg.sender);
    }
}
